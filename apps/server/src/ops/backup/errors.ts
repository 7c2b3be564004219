/** A backup or restore stopped for a reason the operator can fix: printed as its one line. */
export class BackupError extends Error {}
