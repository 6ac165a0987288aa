/**
 * Emulator time. Tests move it forward instead of sleeping, so token expiry and delta-token
 * retention can be exercised instantly; real waits only happen for latency and faults.
 */
export class Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}

/** Graph timestamps have second precision and a `Z` suffix. */
export function isoSeconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}
