// Placeholder until the serve command lands; replaced by its owner.
import type { CommandModule } from 'yargs';

export const serveCommand: CommandModule = {
  command: 'serve',
  describe: '(serve: not built yet)',
  handler: () => {
    throw new Error('docdrop serve is not built yet');
  },
};
