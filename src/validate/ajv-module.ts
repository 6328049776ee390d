/** Ajv (draft-07 and 2020-12) and its formats, embedded beside the main bundle (see runtime/embedded-module.ts); only ajv.ts loads it. */
export { Ajv } from "ajv";
export { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
export { addFormats };
