/**
 * The core's runtime flags and the rules for reading them: one attributes object per session
 * settings, held by the session (flag reads cache by identity), the values a session fixes when it opens, the kill
 * switch, and re-creation when the config's `flags` section changes on reload.
 */
import type { BuildInfo } from "../build-info.ts";
import type { Config } from "../config/schema.ts";
import { createRuntimeFlags, flagsConfigChanged } from "../flags/create-flags.ts";
import { globalFlagAttributes, sessionFlagAttributes } from "../flags/flag-attributes.ts";
import type { FlagAttributes, RuntimeFlags } from "../flags/runtime-flags.ts";
import type { Session } from "../session/session.ts";
import type { RuntimeDefaults, RuntimeFacts } from "../session/settings.ts";
import type { Tool } from "../tool/tool.ts";
import type { Logger } from "../runtime/logger.ts";

export interface CoreFlagsOptions {
  info: BuildInfo;
  logger: Logger;
  /** The config file's folder: a relative `flags.file` resolves against it. */
  configDir: string | undefined;
  /** Injected flags (tests); otherwise built from `config.flags`. */
  injected?: RuntimeFlags;
}

export class CoreFlags {
  #flags: RuntimeFlags;

  constructor(
    config: Config,
    private readonly options: CoreFlagsOptions,
  ) {
    this.#flags = options.injected ?? this.#create(config);
  }

  get current(): RuntimeFlags {
    return this.#flags;
  }

  attributes(session: Session): FlagAttributes {
    return session.flagAttributes(sessionFlagAttributes);
  }

  /** What a session opening with these facts fixes for its life (SPEC §6: no mid-session reshaping). */
  runtimeDefaults(facts: RuntimeFacts): RuntimeDefaults {
    const values = this.#flags.values(sessionFlagAttributes(facts));
    return {
      unsupportedModels: values.tool_search_unsupported_models,
      autoPercent: values.tool_search_auto_percent,
      searchMaxResults: values.search_default_max_results,
      compactAnswers: values.search_compact_answers,
      disabledTools: values.disabled_tools,
      announcements: values.deferred_tools_delta ? "delta" : "list",
    };
  }

  /** The kill switch: a tool named in `disabled_tools` is refused at once, in every session. */
  killSwitch(tool: Tool, session: Session): string | undefined {
    const disabled = this.#flags.get("disabled_tools", this.attributes(session));
    return disabled.includes(tool.name) ? 'disabled by the runtime flag "disabled_tools"' : undefined;
  }

  /** After a reload: a changed `flags` section means new sources, so new flags. */
  async reconfigure(previous: Config, next: Config): Promise<void> {
    if (this.options.injected || !flagsConfigChanged(previous.flags, next.flags)) return;
    await this.#flags.close();
    this.#flags = this.#create(next);
  }

  close(): Promise<void> {
    return this.#flags.close();
  }

  #create(config: Config): RuntimeFlags {
    return createRuntimeFlags(config.flags, {
      features: this.options.info.features,
      attributes: globalFlagAttributes(this.options.info),
      logger: this.options.logger,
      ...(this.options.configDir && { configDir: this.options.configDir }),
    });
  }
}
