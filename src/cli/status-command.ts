// Placeholder until the status command lands; replaced by its owner.
import type { CommandModule } from 'yargs';

export const statusCommand: CommandModule = {
  command: 'status',
  describe: '(status: not built yet)',
  handler: () => {
    throw new Error('docdrop status is not built yet');
  },
};
