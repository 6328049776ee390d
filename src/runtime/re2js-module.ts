/** re2js, embedded beside the main bundle (see embedded-module.ts); only linear-regex.ts loads it. */
export { RE2JS } from "re2js";
