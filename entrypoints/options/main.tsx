import { mountOptions } from '../../src/ui/options/mount-options';

mountOptions(document.getElementById('app')!);
