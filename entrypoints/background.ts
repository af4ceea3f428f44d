import { sharedBackgroundContext } from '../src/background/background-context';
import { installRunService } from '../src/background/run-service';

export default defineBackground(() => {
  installRunService({ context: sharedBackgroundContext() });
});
