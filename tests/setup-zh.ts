// Every unit test starts with the page's Chinese tables in, as main.tsx has them before a Chinese
// page first renders (tests/ui/i18n/zh-loader.test.tsx covers the wait before they arrive).
import { loadZh } from '../src/ui/i18n/zh-loader';

await loadZh();
