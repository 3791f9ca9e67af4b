/** Why a package was refused; the message is shown to the vendor (upload 400, CLI error). */
export class PackageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PackageError';
  }
}
