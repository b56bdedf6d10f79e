// Holds a data dir the way `intentlog serve` does (this process is the writer) until stdin
// closes; test/cli/follower.test.ts runs CLI commands against the same data dir meanwhile.
import { openIntentlog } from '../../src/modules/index.js';

const [dataDir] = process.argv.slice(2);
const app = await openIntentlog({ dataDir: dataDir! });
process.stdout.write(`${JSON.stringify({ ready: true, role: app.log.role() })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void app.close().then(() => process.stdout.write(`${JSON.stringify({ closed: true })}\n`));
});
