// JSON Schema checks (ajv), with ajv loaded by the first schema compiled rather than at start-up.
import type { ValidateFunction } from "ajv";

export type { ValidateFunction };

export function compileJsonSchema(schema: object): ValidateFunction {
  const Ajv = (require("ajv") as typeof import("ajv")).default;
  return new Ajv({ strict: false, allErrors: false }).compile(schema);
}
