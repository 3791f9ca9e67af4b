// Admin extension: the admin panel imports this module and calls render() for the `dashboard` slot.

/** @type {import('@emporium/plugin-sdk').AdminExtension} */
export default {
  slot: 'dashboard',
  title: 'Hello',
  async render(el, api) {
    const doc = el.ownerDocument;
    const heading = doc.createElement('h3');
    const line = doc.createElement('p');
    heading.textContent = 'Hello from Acme';
    line.textContent = "Loading today's orders…";
    el.replaceChildren(heading, line);

    const since = new Date();
    since.setUTCHours(0, 0, 0, 0);
    try {
      const res = await api.fetch(`/admin/orders?limit=0&created_at[gte]=${encodeURIComponent(since.toISOString())}`);
      line.textContent = `Orders today: ${res.count}`;
    } catch {
      line.textContent = 'Orders today: unavailable';
    }
    return () => el.replaceChildren();
  },
};
