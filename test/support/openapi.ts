import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** The parts of an OpenAPI 3.1 document the tests read. */
export interface OpenApiOperation {
  operationId: string;
  tags?: string[];
  servers?: { url: string }[];
  security?: unknown[];
  deprecated?: boolean;
  parameters?: { name: string; in: string; required?: boolean; schema: Record<string, unknown> }[];
  requestBody?: {
    required?: boolean;
    content: Record<string, { schema: Record<string, unknown> }>;
  };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;
}
export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  webhooks: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, Record<string, unknown>>;
    responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
    securitySchemes: Record<string, unknown>;
  };
};

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation of `paths` as [METHOD, path, operation]. */
export function operations(doc: OpenApiDocument): [string, string, OpenApiOperation][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((m) => item[m]).map((m): [string, string, OpenApiOperation] => [
      m.toUpperCase(),
      path,
      item[m]!,
    ]),
  );
}

const pointer = (...parts: string[]) =>
  parts.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/**
 * Validators of JSON bodies against the document, with JSON Schema 2020-12 (ajv). The document is
 * added whole, so `#/components/schemas/...` references resolve as they do for any OpenAPI tool.
 */
export class DocumentValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });

  constructor(private readonly doc: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema(doc as object, 'openapi.json');
  }

  private compile(at: string): ValidateFunction {
    return this.ajv.compile({ $ref: `openapi.json#${at}` });
  }

  /** A named component of components.schemas. */
  component(name: string): ValidateFunction {
    if (!this.doc.components.schemas[name]) throw new Error(`no component ${name}`);
    return this.compile(pointer('components', 'schemas', name));
  }

  /** The JSON body schema of one response of one operation (following a components.responses $ref). */
  response(method: string, path: string, status: string): ValidateFunction {
    const op = this.doc.paths[path]?.[method.toLowerCase()];
    if (!op) throw new Error(`no operation ${method} ${path}`);
    const key = op.responses[status] ? status : 'default';
    const entry = op.responses[key];
    if (!entry) throw new Error(`${method} ${path} documents neither ${status} nor default`);
    if (entry.$ref) {
      const name = entry.$ref.replace('#/components/responses/', '');
      return this.compile(
        pointer('components', 'responses', name, 'content', 'application/json', 'schema'),
      );
    }
    return this.compile(
      pointer(
        'paths',
        path,
        method.toLowerCase(),
        'responses',
        key,
        'content',
        'application/json',
        'schema',
      ),
    );
  }
}

export const explain = (validate: ValidateFunction) =>
  JSON.stringify(validate.errors?.map((e) => `${e.instancePath} ${e.message}`) ?? []);
