// Placeholder until the run command lands; replaced by its owner.
import type { CommandModule } from 'yargs';

export const runCommand: CommandModule = {
  command: 'run',
  describe: '(run: not built yet)',
  handler: () => {
    throw new Error('docdrop run is not built yet');
  },
};
