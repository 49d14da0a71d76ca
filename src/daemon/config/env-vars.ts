// ${VAR} interpolation in config values. Done on parsed YAML scalars, not on the raw text, so a variable's
// value can never change the YAML structure (a value holding ": " or a newline stays one string).
// `${VAR:-default}` takes the default when VAR is unset or empty (as the shell does); `$${` is a literal `${`.

const PATTERN = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export class MissingEnvError extends Error {
  constructor(
    readonly path: string,
    readonly variable: string,
  ) {
    super(
      `${path || '(top level)'}: environment variable ${variable} is not set ` +
        `(set it, or write \${${variable}:-default} to give a default)`,
    );
  }
}

export function interpolateString(value: string, env: NodeJS.ProcessEnv, path: string): string {
  return value.replace(PATTERN, (match, name: string | undefined, fallback: string | undefined) => {
    if (name === undefined) return '${';
    const v = env[name];
    if (v !== undefined && v !== '') return v;
    if (fallback !== undefined) return fallback;
    if (v === '') return '';
    throw new MissingEnvError(path, name);
  });
}

/** Returns a copy of a parsed YAML tree with every string value interpolated. Keys are left as written. */
export function interpolateTree(node: unknown, env: NodeJS.ProcessEnv, path = ''): unknown {
  if (typeof node === 'string') return interpolateString(node, env, path);
  if (Array.isArray(node)) return node.map((v, i) => interpolateTree(v, env, `${path}[${i}]`));
  if (node !== null && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [k, interpolateTree(v, env, path ? `${path}.${k}` : k)]),
    );
  }
  return node;
}
