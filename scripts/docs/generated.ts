import { parseConfig } from "../../src/config/config.load.js";
import { configSchema } from "../../src/config/config.schema.js";
import { configKeys, configurationMarkdown, defaultConfigYaml } from "./config-reference.js";
import { errorsMarkdown } from "./error-reference.js";

/** Each generated file (path from the repository root) and the text it must hold. */
export function generatedFiles(): Record<string, string> {
  const keys = configKeys(configSchema, parseConfig({}, {}));
  return {
    "docs/configuration.md": configurationMarkdown(keys),
    "packaging/pps-edge.yaml": defaultConfigYaml(keys),
    "docs/errors.md": errorsMarkdown(),
  };
}
