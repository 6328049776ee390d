/** A call's progress as `notifications/progress` carries it (MCP), and as a tool reports it. */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}
