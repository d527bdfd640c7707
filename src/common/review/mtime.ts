// Dating a disk change by its file's modification time: the file watcher reports late (seconds, on a
// busy machine), so when it reports says little about whose change it was.

/** Slack for file systems that keep modification times in whole (or even two) seconds. */
const WHOLE_SECOND_SLACK_MS = 2000;
/** How far a file's modification time may lag the wall clock it is compared with (the kernel's coarse clock). */
const CLOCK_LAG_MS = 20;

/**
 * Whether a file modified at `mtimeMs` may have been modified between `started` and `ended` (ms,
 * Date.now()). A modification time lags the wall clock a little (the kernel's coarse clock), and a
 * whole-second one (FAT, some network file systems) is rounded down: whatever the doubt, the change
 * is the turn's, so an agent's real change is never dropped.
 */
export function modifiedDuring(mtimeMs: number, started: number, ended?: number): boolean {
  const lag = mtimeMs % 1000 === 0 ? WHOLE_SECOND_SLACK_MS : CLOCK_LAG_MS;
  return mtimeMs + lag >= started && (ended === undefined || mtimeMs <= ended);
}
