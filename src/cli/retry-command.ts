// Placeholder until the retry command lands; replaced by its owner.
import type { CommandModule } from 'yargs';

export const retryCommand: CommandModule = {
  command: 'retry',
  describe: '(retry: not built yet)',
  handler: () => {
    throw new Error('docdrop retry is not built yet');
  },
};
