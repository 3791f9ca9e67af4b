/** A parcel's label as its fulfilment provider made it: the tracking (maybe with a page) and the label to print. */
export interface ParcelLabel {
  id: string;
  tracking_number: string;
  tracking_url: string;
  label_url: string;
}

/**
 * The tracking (linked when the carrier gave a page) and the label of each parcel: the order's
 * shipments ("Tracking", "Label") and its returns ("Return tracking", "Return label"). Nothing
 * without labels.
 */
export function ParcelLabels({ labels, returning }: { labels: ParcelLabel[]; returning?: boolean }) {
  if (!labels.length) return null;
  return (
    <ul className="labels" aria-label={returning ? 'Return labels and tracking' : 'Labels and tracking'}>
      {labels.map((l) => (
        <li key={l.id}>
          {returning ? 'Return tracking' : 'Tracking'}{' '}
          {l.tracking_url ? (
            <a href={l.tracking_url} target="_blank" rel="noreferrer">
              {l.tracking_number || l.tracking_url}
            </a>
          ) : (
            l.tracking_number
          )}
          {l.label_url && (
            <>
              {' · '}
              <a href={l.label_url} target="_blank" rel="noreferrer">
                {returning ? 'Return label' : 'Label'}
              </a>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
