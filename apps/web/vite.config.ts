import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin } from 'vite';

/** `@telemedicina/shared/<area>` resolves to the shared package's source (there is no barrel). */
const sharedDirectory = fileURLToPath(new URL('../../packages/shared/src/', import.meta.url));
const sharedAlias = [{ find: /^@telemedicina\/shared\/([\w-]+)$/, replacement: `${sharedDirectory}$1.ts` }];

/**
 * Writes `boot-hints.json` beside index.html: per boot step, the scripts and styles it loads beyond
 * the entry's (which index.html already names) — the signed-out start page's screen
 * (`features/auth/start.tsx`, `signIn`), a signed-in page's application and admin frame (`app`),
 * the `/admin` home (`home`). The server sends the sign-in styles render-blocking with the
 * pre-rendered screen; the other steps become `modulepreload`/`preload` hints, so their files come
 * in the first wave instead of after the entry has downloaded and run
 * (apps/server/src/http/page-hints.ts).
 */
function bootHints(): Plugin {
  const steps: Record<string, string[]> = {
    signIn: ['src/features/auth/start.tsx'],
    // A signed-in page: the application and the admin area's frame (`main.tsx` imports them at once).
    app: ['src/app/start-app.tsx', 'src/app/AdminShell.tsx'],
    // `/admin`: the home route and the home page of everyone but clinic admins.
    home: ['src/app/HomeRoute.tsx', 'src/features/home/index.ts'],
    // A patient portal page: the application, the portal's light frame and its home, fetched with the entry.
    // (Its home comes in the frame's chunk, which imports it statically.)
    portal: ['src/app/start-app.tsx', 'src/app/PortalShell.tsx'],
    // What the signed-in frame fetches once the page is idle (`usePrefetchWhenIdle`): the message
    // dialog, the idle-session warning, the notifications' list. Only their styles are used (put in
    // the pre-rendered `/admin`): linked later, each file restyled and laid out the whole page again.
    idle: [
      'src/components/message-dialog/MessageDialog.tsx',
      'src/features/admin/components/IdleWarningDialog.tsx',
      'src/features/notifications/components/NotificationList.tsx',
    ],
  };
  let base = '/';
  return {
    name: 'telemedicina-boot-hints',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const closure = (fileName: string): Set<string> => {
        const seen = new Set<string>();
        const stack = [fileName];
        while (stack.length > 0) {
          const file = stack.pop()!;
          if (!seen.has(file) && byFile.has(file)) {
            seen.add(file);
            stack.push(...byFile.get(file)!.imports);
          }
        }
        return seen;
      };
      const entry = chunks.find((chunk) => chunk.isEntry);
      if (!entry) {
        return;
      }
      const loaded = closure(entry.fileName);
      const hints: Record<string, { scripts: string[]; styles: string[] }> = {};
      for (const [step, sources] of Object.entries(steps)) {
        const stepChunks = sources.map((source) =>
          chunks.find((item) => item.facadeModuleId?.endsWith(`/${source}`)),
        );
        if (stepChunks.some((chunk) => !chunk)) {
          continue;
        }
        const files = [...new Set(stepChunks.flatMap((chunk) => [...closure(chunk!.fileName)]))].filter(
          (file) => !loaded.has(file),
        );
        // Styles in the order Vite's loader links them when the chunk is imported (a chunk's
        // imports' styles before its own): the server may put them in the page beforehand, and the
        // cascade must come out the same once the loader has linked them too.
        const styles: string[] = [];
        const visited = new Set<string>();
        const visit = (file: string) => {
          const item = byFile.get(file);
          if (visited.has(file) || !item) {
            return;
          }
          visited.add(file);
          item.imports.forEach(visit);
          if (!loaded.has(file)) {
            styles.push(...(item.viteMetadata?.importedCss ?? []));
          }
        };
        stepChunks.forEach((chunk) => visit(chunk!.fileName));
        hints[step] = {
          scripts: files.map((file) => `${base}${file}`),
          styles: [...new Set(styles)].map((file) => `${base}${file}`),
        };
      }
      this.emitFile({
        type: 'asset',
        fileName: 'boot-hints.json',
        source: `${JSON.stringify(hints, null, 2)}\n`,
      });
    },
  };
}

/**
 * Writes the pages drawn before their scripts run, as static HTML per language, which the server
 * puts inside `#root` (page-hints.ts): `sign-in-prerender.json`, the signed-out start page's sign-in
 * screen (src/features/auth/prerender.tsx), `home-prerender.json`, the signed-in start page's
 * frame and heading (src/app/prerender-home.tsx), and `portal-prerender.json`, the patient portal's
 * frame and home placeholder (src/app/prerender-portal.tsx). Rendered by a server-side build of those modules
 * with the same plugins and aliases, so CSS module class names are the client build's.
 */
function prerenderPages(): Plugin {
  let root = '';
  let outDir = '';
  let isSsrBuild = false;
  return {
    name: 'telemedicina-prerender-pages',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      isSsrBuild = Boolean(config.build.ssr);
    },
    async closeBundle() {
      if (isSsrBuild) {
        return;
      }
      // Inside the project, so the rendered modules find the dependencies in node_modules.
      const temporary = mkdtempSync(path.join(root, 'node_modules', '.telemedicina-prerender-'));
      try {
        await build({
          configFile: false,
          root,
          logLevel: 'warn',
          plugins: [react()],
          resolve: { alias: sharedAlias },
          build: {
            ssr: true,
            outDir: temporary,
            emptyOutDir: true,
            sourcemap: false,
            rolldownOptions: {
              input: {
                'sign-in': 'src/features/auth/prerender.tsx',
                home: 'src/app/prerender-home.tsx',
                portal: 'src/app/prerender-portal.tsx',
              },
              output: { entryFileNames: '[name].mjs' },
            },
          },
          ssr: { noExternal: [/^@telemedicina\//] },
        });
        type Render = (language: string, resources: unknown) => Promise<string>;
        const pages: { module: string; exportName: string; file: string }[] = [
          { module: 'sign-in.mjs', exportName: 'prerenderSignIn', file: 'sign-in-prerender.json' },
          { module: 'home.mjs', exportName: 'prerenderHome', file: 'home-prerender.json' },
          { module: 'portal.mjs', exportName: 'prerenderPortal', file: 'portal-prerender.json' },
        ];
        for (const page of pages) {
          const loaded = (await import(pathToFileURL(path.join(temporary, page.module)).href)) as Record<
            string,
            Render
          >;
          const render = loaded[page.exportName];
          if (!render) {
            throw new Error(`${page.module} does not export ${page.exportName}`);
          }
          const markup: Record<string, string> = {};
          for (const language of ['es', 'en']) {
            const resources: unknown = JSON.parse(
              readFileSync(path.join(outDir, 'assets', 'i18n', `${language}.json`), 'utf8'),
            );
            markup[language] = await render(language, resources);
          }
          writeFileSync(path.join(outDir, page.file), `${JSON.stringify(markup)}\n`);
        }
      } finally {
        rmSync(temporary, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Writes `.br` and `.gz` beside every text file of the build (scripts, styles, HTML, SVG, the
 * translations), so the server sends them compressed without spending CPU per request
 * (@fastify/static `preCompressed`). On the sign-in page this is ~¾ fewer bytes to download.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'telemedicina-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' })
        .map((name) => path.join(outDir, name))
        .filter((file) => /\.(js|css|html|svg|json|txt)$/.test(file) && statSync(file).size >= 1024);
      for (const file of files) {
        const content = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, {
            params: {
              [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
            },
          }),
        );
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), bootHints(), prerenderPages(), precompress()],
  resolve: { alias: sharedAlias },
  build: {
    outDir: 'dist',
    sourcemap: true,
    rolldownOptions: {
      // Required by `experimentalInlineCommonChunks` (the entry exports nothing).
      preserveEntrySignatures: false,
      treeshake: {
        // The shared package holds contracts: zod schemas beside plain constants. Declaring its
        // source free of side effects and `z.…` builders pure lets the first download take the
        // constants (language list, error codes, API base path) without zod and unused schemas.
        moduleSideEffects: [{ test: /[\\/]packages[\\/]shared[\\/]src[\\/]/, sideEffects: false }],
        manualPureFunctions: ['z'],
      },
      output: {
        // Libraries every page or the sign-in page loads anyway get a chunk of their own each, so a
        // release that changes only application code leaves them cached. Mantine is left to the
        // default splitting: grouping it would pull components only the admin area uses into the
        // first download.
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
            { name: 'router', test: /[\\/]node_modules[\\/]react-router[\\/]/, priority: 20 },
            { name: 'i18n', test: /[\\/]node_modules[\\/](i18next|react-i18next)[\\/]/, priority: 20 },
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/, priority: 20 },
            {
              name: 'forms',
              test: /[\\/]node_modules[\\/](react-hook-form|@hookform[\\/]resolvers)[\\/]/,
              priority: 20,
            },
            {
              // The floating layers of the signed-in frame (its menus, the search list, the
              // notifications' popover) with their positioning and scroll locking: every signed-in
              // page loads them all with the frame, in one file instead of six.
              name: 'overlays',
              test: /[\\/]node_modules[\\/](@floating-ui[\\/]|react-remove-scroll|react-style-singleton[\\/]|use-callback-ref[\\/]|use-sidecar[\\/]|get-nonce[\\/]|tslib[\\/]|@mantine[\\/]core[\\/]esm[\\/]components[\\/](Portal|Popover|Combobox|Menu|ScrollArea)[\\/])/,
              priority: 20,
              // Only these: the Mantine parts they share with the sign-in screen stay where they are.
              includeDependenciesRecursively: false,
            },
            {
              name: 'query',
              test: /[\\/]node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]/,
              priority: 20,
            },
          ],
          // Small common chunks (a Mantine part, a hook) are copied into the chunks that read them
          // instead of being files of their own: the sign-in screen came in ~30 files, the patient's
          // first page in ~90, and over HTTP/1.1 a browser fetches six at a time per host — each six
          // more cost a round trip on a slow mobile network (Lighthouse mobile: 88 → 97 on `/`,
          // 56 → 70 on `/admin`, measured together with the pre-rendered sign-in screen). Rolldown's
          // runtime keeps one state and one set of exports per module across the copies (it turns
          // `strictExecutionOrder` on); chunks holding styles stay files, as Vite's CSS handling
          // expects.
          experimentalInlineCommonChunks: {
            maxSize: 12 * 1024,
            exclude: /\.(css|scss|sass|less|styl|stylus|pcss|postcss|sss)(\?|$)/,
          },
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/socket.io': { target: 'http://localhost:3000', ws: true },
    },
  },
});
