// jest globalSetup of the multi-instance suite: the second instance runs as `node dist/main.js`, so build it once.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

module.exports = async () => {
  const root = path.resolve(__dirname, '..', '..');
  execFileSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build'], { cwd: root, stdio: 'inherit' });
};
