/**
 * What a pooled server says about a tool for people and hosts, kept so the MCP faces can pass it on
 * unchanged: its `title`, its `icons` and the JSON Schema dialect its input schema declared
 * (`$schema`, which the provider-facing copy drops). Untrusted and bounded: at most MAX_ICONS icons,
 * each a `https:` or `data:image/` source of at most MAX_ICON_SRC_CHARS characters (a host fetches or
 * renders what it is given, so no `http:`, `file:` or `javascript:`), a title of at most
 * MAX_TITLE_CHARS characters (on one line: control and format characters folded to spaces), a dialect
 * URI of at most MAX_DIALECT_CHARS. Anything else is left out.
 */
import { foldLine } from "../tool/one-line.ts";
import { dropHidden } from "./catalog-text.ts";
import type { McpIcon, McpPresentation } from "../tool/tool.ts";

const MAX_ICONS = 4;
const MAX_ICON_SRC_CHARS = 16_384;
const MAX_TITLE_CHARS = 200;
const MAX_DIALECT_CHARS = 200;

export function presentationOf(definition: { title?: unknown; icons?: unknown; annotations?: { title?: unknown } }, dialect: unknown): McpPresentation {
  const given = typeof definition.title === "string" ? definition.title : definition.annotations?.title;
  // Hidden characters dropped (catalog-text.ts) before the fold: a zero-width space inside a word must not split it.
  const rawTitle = typeof given === "string" ? dropHidden(given, MAX_TITLE_CHARS + 1) : given;
  // One line (tool/one-line.ts): a host may show it where its own lines are, or to its model.
  const title = typeof rawTitle === "string" && rawTitle.length <= MAX_TITLE_CHARS && foldLine(rawTitle).trim() !== "" ? foldLine(rawTitle).trim() : undefined;
  const icons = Array.isArray(definition.icons) ? definition.icons.flatMap(iconOf).slice(0, MAX_ICONS) : [];
  const schemaDialect = typeof dialect === "string" && dialect.length <= MAX_DIALECT_CHARS && /^https?:\/\/\S+$/.test(dialect) ? dialect : undefined;
  return {
    ...(title !== undefined && { title }),
    ...(icons.length > 0 && { icons }),
    ...(schemaDialect !== undefined && { schemaDialect }),
  };
}

function iconOf(raw: unknown): McpIcon[] {
  if (typeof raw !== "object" || raw === null) return [];
  const { src, mimeType, sizes, theme } = raw as Record<string, unknown>;
  if (typeof src !== "string" || src.length > MAX_ICON_SRC_CHARS || !/^(https:\/\/|data:image\/)/i.test(src)) return [];
  const sizeList = Array.isArray(sizes) ? sizes.filter((size): size is string => typeof size === "string" && /^(\d{1,5}x\d{1,5}|any)$/.test(size)).slice(0, 8) : [];
  return [
    {
      src,
      ...(typeof mimeType === "string" && /^image\/[\w.+-]{1,60}$/.test(mimeType) && { mimeType }),
      ...(sizeList.length > 0 && { sizes: sizeList }),
      ...((theme === "light" || theme === "dark") && { theme }),
    },
  ];
}
