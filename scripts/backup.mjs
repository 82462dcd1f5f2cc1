// `npm run backup`: runs the built CLI when the server was built, else the TypeScript source through tsx.
// See apps/server/src/backup/ and docs/DEPLOYMENT.md (Backups).
import { runBackupCli } from './backup-cli.mjs';

process.exitCode = await runBackupCli('backup', process.argv.slice(2));
