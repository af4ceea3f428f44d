import { mountSidePanel } from '../../src/ui/side-panel/mount-side-panel';

void mountSidePanel(document.getElementById('app')!);
