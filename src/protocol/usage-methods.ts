/** Params of `toolpool/stats` and `toolpool/history/clear` (results in stats-result.ts). */
import { z } from "zod";

/** The longest window stats read; older rows are still kept (within the row caps) but not summed. */
export const MAX_STATS_WINDOW_MS = 366 * 24 * 3_600_000;

export const statsParams = z.lazy(() =>
  z.strictObject({
    /** Only what happened in the last `sinceMs` ms; everything kept when absent. */
    sinceMs: z.number().int().min(1).max(MAX_STATS_WINDOW_MS).optional(),
    /** How many zero-result queries, tools and servers to list (default 10). */
    top: z.number().int().min(1).max(100).optional(),
  }),
);

export const historyClearParams = z.lazy(() =>
  z.strictObject({
    /** An absolute workspace path (a session's first workspace root); all of the history when absent. */
    workspace: z
      .string()
      .min(1)
      .max(1_024)
      .refine((path) => path.startsWith("/"), "must be an absolute path")
      .optional(),
  }),
);

export type StatsParams = z.input<typeof statsParams>;
export type HistoryClearParams = z.input<typeof historyClearParams>;
