/**
 * The import rules of src/ (checked by src/architecture.spec.ts in `npm test`): no import cycle between files, and
 * common/ is a leaf that imports nothing else of the service. That the folders themselves form no cycle is checked by
 * the same spec, on the graph this configuration produces.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: the files on it cannot be understood, loaded or tested one without the other.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'common-is-a-leaf',
      severity: 'error',
      comment: 'common/ holds helpers every module may use; it imports no module of the service.',
      from: { path: '^src/common/' },
      to: { path: '^src/', pathNot: '^src/common/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
