// Vitest's packages/vitest/src/utils/config-helpers.ts (MIT, Copyright (c) 2021-Present Anthony Fu and
// Matias Capeletto) at 199776767a10: which file a reporter writes to, from `outputFile`.
interface PotentialConfig {
  outputFile?: string | Partial<Record<string, string>>;
}

export const getOutputFile = (config: PotentialConfig | undefined, reporter: string) => {
  if (!config?.outputFile) return;

  if (typeof config.outputFile === 'string') return config.outputFile;

  return config.outputFile[reporter];
};
