/**
 * A scripted model for running the examples offline: it answers each request with the next
 * recorded response from a JSON file, and keeps every request it was sent so a test can check what
 * the agent would have sent a real API (tools array, betas, attachments, compaction).
 *
 * Script files (examples/scripted/*.json):
 *   { "description": "…", "prompts": ["user turn", …], "responses": [<provider response>, …] }
 */
import { readFile } from "node:fs/promises";

export interface Script<Response> {
  description?: string;
  /** The user turns, in order. */
  prompts: string[];
  /** The model's answers, one per request, in the provider's own response shape. */
  responses: Response[];
}

export class ScriptedModel<Request, Response> {
  readonly requests: Request[] = [];
  #next = 0;

  constructor(private readonly script: Script<Response>) {}

  /** The next recorded response; the request is kept (deep-copied: the agent mutates its transcript). */
  respond(request: Request): Response {
    this.requests.push(structuredClone(request));
    const response = this.script.responses[this.#next++];
    if (response === undefined) {
      throw new Error(`the script has ${this.script.responses.length} responses, and the agent asked for more`);
    }
    return structuredClone(response);
  }

  get remaining(): number {
    return this.script.responses.length - this.#next;
  }
}

export async function loadScript<Response>(path: string): Promise<Script<Response>> {
  const parsed = JSON.parse(await readFile(path, "utf8")) as Partial<Script<Response>>;
  if (!Array.isArray(parsed.prompts) || !Array.isArray(parsed.responses)) {
    throw new Error(`${path}: a script needs "prompts" and "responses" arrays`);
  }
  return { ...(parsed.description && { description: parsed.description }), prompts: parsed.prompts, responses: parsed.responses };
}
