// What a thrown value says, for a message the user reads or a log line.

/** The message of an Error, else the value as text. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
