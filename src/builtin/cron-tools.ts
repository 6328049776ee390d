/**
 * CronCreate, CronList and CronDelete: the model's handle on the daemon's cron scheduler. Built by
 * `createCronTools(scheduler)` — the daemon owns the scheduler (and its database and delivery);
 * the tools only reach it through the dependency passed in. Gated behind AGENT_TRIGGERS and
 * required only inside that `feature()` branch.
 */
import { z } from "zod";
import { CronExpressionError, parseCronExpression } from "../cron/cron-expression.ts";
import { CronError, MAX_PROMPT_CHARS, type CronScheduler } from "../cron/cron-scheduler.ts";
import type { CronJobRecord } from "../cron/cron-schema.ts";
import { buildTool, NO_PATHS } from "../tool/build-tool.ts";
import { errorResult, textResult, type ToolResult } from "../tool/result.ts";
import type { Tool } from "../tool/tool.ts";
import createDescription from "./cron-create.txt" with { type: "text" };
import deleteDescription from "./cron-delete.txt" with { type: "text" };
import listDescription from "./cron-list.txt" with { type: "text" };

/** Prompts are shown cut to this in CronList: the list is for finding a job, not rereading it. */
const LISTED_PROMPT_CHARS = 200;

const createSchema = () =>
  z.strictObject({
    cron: z.string().min(1).max(200).describe('Standard 5-field cron expression: minute hour day-of-month month day-of-week (e.g. "0 9 * * 1-5").'),
    prompt: z.string().min(1).max(MAX_PROMPT_CHARS).describe("The instruction to act on when the job fires, written to make sense on its own."),
    recurring: z.boolean().optional().describe("true (default): fire on every match; false: fire once at the next match, then remove the job."),
  });

const listSchema = () => z.strictObject({});

const deleteSchema = () =>
  z.strictObject({
    id: z.string().min(1).max(64).describe("The job's id, from CronCreate or CronList."),
  });

export function createCronTools(scheduler: CronScheduler): Tool[] {
  const zoneNote = `\n\nTimes are in the daemon's time zone, ${scheduler.timezone}.`;

  const cronCreate = buildTool({
    name: "CronCreate",
    description: createDescription.trimEnd() + zoneNote,
    searchHint: "schedule recurring task later reminder timer every day",
    inputSchema: createSchema,
    access: () => NO_PATHS,
    shouldDefer: true,
    permissionSubject: ({ cron }) => cron,
    async validateInput({ cron }) {
      try {
        parseCronExpression(cron, scheduler.timezone);
        return undefined;
      } catch (error) {
        if (error instanceof CronExpressionError) return error.message;
        throw error;
      }
    },
    async call({ cron, prompt, recurring = true }, { sessionId, clientId }) {
      return refusalOr(() => {
        const job = scheduler.create({ sessionId, cron, prompt, recurring, ...(clientId !== undefined && { client: clientId }) });
        const kind = job.recurring ? "recurring" : "one-off";
        return textResult(
          `Scheduled ${kind} job ${job.id} ("${job.cron}"). Next run: ${formatTime(job.nextRunAt, scheduler.timezone)}. ` +
            "When it fires, this session's client is notified with the prompt (or, if none is connected, when one reconnects).",
          { job: jobView(job, scheduler.timezone) },
        );
      });
    },
  });

  const cronList = buildTool({
    name: "CronList",
    description: listDescription.trimEnd() + zoneNote,
    searchHint: "scheduled jobs show list cron timers",
    inputSchema: listSchema,
    access: () => NO_PATHS,
    shouldDefer: true,
    isReadOnly: true,
    isConcurrencySafe: () => true,
    async call(_input, { sessionId }) {
      const jobs = scheduler.list(sessionId);
      if (jobs.length === 0) return textResult("No cron jobs in this session. Create one with CronCreate.", { jobs: [] });
      const lines = jobs.map((job) => {
        const owner = job.createdBy === sessionId ? "" : " [subscribed]";
        const prompt = job.prompt.length > LISTED_PROMPT_CHARS ? `${job.prompt.slice(0, LISTED_PROMPT_CHARS)}…` : job.prompt;
        return `- ${job.id}${owner}: "${job.cron}", ${job.recurring ? "recurring" : "one-off"}, next run ${formatTime(job.nextRunAt, scheduler.timezone)}\n  prompt: ${prompt}`;
      });
      return textResult(`${jobs.length} cron ${jobs.length === 1 ? "job" : "jobs"}:\n${lines.join("\n")}`, {
        jobs: jobs.map((job) => jobView(job, scheduler.timezone)),
      });
    },
  });

  const cronDelete = buildTool({
    name: "CronDelete",
    description: deleteDescription.trimEnd(),
    searchHint: "cancel remove scheduled job stop cron timer",
    inputSchema: deleteSchema,
    access: () => NO_PATHS,
    shouldDefer: true,
    destructive: true,
    permissionSubject: ({ id }) => id,
    async call({ id }, { sessionId }) {
      const outcome = scheduler.remove(sessionId, id);
      if (outcome === "deleted") return textResult(`Deleted cron job ${id}; it will not fire again.`, { id, outcome });
      if (outcome === "unsubscribed") {
        return textResult(`Cron job ${id} belongs to another session; this session will no longer receive its firings.`, { id, outcome });
      }
      const ids = scheduler.list(sessionId).map((job) => job.id);
      const known = ids.length > 0 ? `This session's jobs are: ${ids.join(", ")}.` : "This session has no cron jobs.";
      return errorResult(`No cron job "${id}" in this session. ${known}`);
    },
  });

  return [cronCreate, cronList, cronDelete];
}

function refusalOr(run: () => ToolResult): ToolResult {
  try {
    return run();
  } catch (error) {
    if (error instanceof CronError || error instanceof CronExpressionError) return errorResult(error.message);
    throw error;
  }
}

function jobView(job: CronJobRecord, timezone: string) {
  return {
    id: job.id,
    cron: job.cron,
    prompt: job.prompt,
    recurring: job.recurring,
    nextRunAt: job.nextRunAt === null ? null : new Date(job.nextRunAt).toISOString(),
    nextRunLocal: job.nextRunAt === null ? null : formatTime(job.nextRunAt, timezone),
  };
}

/** "2026-03-02 09:00 Europe/Berlin": what the user would read on their own clock. */
function formatTime(ms: number | null, timezone: string): string {
  if (ms === null) return "none (it will not run again)";
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone: timezone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(new Date(ms))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${timezone}`;
}
