// Placeholder until the process command lands; replaced by its owner.
import type { CommandModule } from 'yargs';

export const processCommand: CommandModule = {
  command: 'process',
  describe: '(process: not built yet)',
  handler: () => {
    throw new Error('docdrop process is not built yet');
  },
};
