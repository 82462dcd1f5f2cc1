// @ts-check
import { dirname, relative, resolve, sep } from 'node:path';

/**
 * Server modules depend on each other in one direction only. The layers are
 * listed once, in eslint.config.js, bottom first: a file in
 * apps/server/src/modules/<name>/ may import another module only from a lower
 * layer (never from its own layer or above), so no chain of imports can come
 * back to where it started. Files directly in modules/ (context.ts) count as
 * the module named after the file. A module missing from the table is an
 * error too, so a new module takes its place in the order on purpose.
 *
 * @type {import('eslint').Rule.RuleModule}
 */
const moduleLayersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Server modules import only modules of lower layers (no import loops).' },
    schema: [
      {
        type: 'object',
        properties: {
          modulesDir: { type: 'string' },
          layers: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
        },
        required: ['modulesDir', 'layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      upward:
        'modules/{{from}} (layer {{fromLayer}}) must not import modules/{{to}} (layer {{toLayer}}): a module imports only from lower layers (serverModuleLayers in eslint.config.js). Move the shared piece down, or let the lower module take a callback.',
      unlisted:
        'modules/{{name}} has no layer: add it to serverModuleLayers in eslint.config.js, above every module it imports.',
    },
  },
  create(context) {
    const { modulesDir, layers } = context.options[0];
    const root = resolve(context.cwd, modulesDir);
    /** @type {Map<string, number>} */
    const layerOf = new Map();
    layers.forEach((names, index) => {
      for (const name of names) {
        layerOf.set(name, index);
      }
    });
    /** @param {string} path */
    const moduleOf = (path) => {
      const inside = relative(root, path);
      if (inside.startsWith('..') || inside === '') {
        return null;
      }
      const [first, ...rest] = inside.split(sep);
      return rest.length === 0 ? first.replace(/\.[cm]?[jt]sx?$/, '') : first;
    };
    const from = moduleOf(context.filename);
    if (from === null) {
      return {};
    }
    /** @param {import('estree').Node} node @param {unknown} source */
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) {
        return;
      }
      const to = moduleOf(resolve(dirname(context.filename), source));
      if (to === null || to === from) {
        return;
      }
      for (const name of [from, to]) {
        if (!layerOf.has(name)) {
          context.report({ node, messageId: 'unlisted', data: { name } });
          return;
        }
      }
      const fromLayer = /** @type {number} */ (layerOf.get(from));
      const toLayer = /** @type {number} */ (layerOf.get(to));
      if (toLayer >= fromLayer) {
        context.report({
          node,
          messageId: 'upward',
          data: { from, to, fromLayer: String(fromLayer), toLayer: String(toLayer) },
        });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => check(node, node.source?.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source.value : null),
    };
  },
};

export default { rules: { 'server-module-layers': moduleLayersRule } };
