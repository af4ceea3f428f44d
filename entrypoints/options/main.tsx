// First: zod must be jitless before any schema is built (no eval-like code at run time).
import '../../src/zod-jitless';
import { mountOptions } from '../../src/ui/options/mount-options';

mountOptions(document.getElementById('app')!);
