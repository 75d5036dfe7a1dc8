// What a benchmark module exports, and what it reports back to bench/run.ts.

export interface BenchContext {
  /** The compiled executable (dist/confab), built or reused by bench/run.ts. */
  exe: string;
  /** A scratch directory for this module, removed afterwards. */
  tmp: string;
  /** Progress lines for the terminal. */
  log(line: string): void;
}

export interface Target {
  label: string;
  value: number;
  unit: string;
  /** "<" : value must stay below `limit`; ">=" : at least `limit`. */
  op: "<" | ">=";
  limit: number;
}

export interface BenchResult {
  /** Every figure measured, by name (written to bench/results/<name>.json). */
  figures: Record<string, number | string>;
  targets: Target[];
}

/** A benchmark module: bench/<name>.ts exporting `run`. */
export type BenchModule = { run(ctx: BenchContext): Promise<BenchResult> };

export const met = (t: Target) => (t.op === "<" ? t.value < t.limit : t.value >= t.limit);
