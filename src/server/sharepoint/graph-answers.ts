/**
 * The shape of every answer the portal reads from Microsoft Graph and from the token endpoint
 * (docs/decisions/0033). Properties the portal does not use are let through untouched (Graph adds
 * facets over time); the ones it does use are checked, so a proxy's error page, a truncated page or a
 * changed API stops at the door with one clear message instead of surfacing later as an `undefined`
 * somewhere in the delivery code.
 */
import { z } from 'zod';
import { SharePointError } from './errors';

/** Graph ids are strings; a lenient server may send a number, which means the same item. */
const graphId = z.union([z.string().min(1), z.number().int().transform(String)]);
const link = z.string().min(1);

/** A list item; `fields` holds the columns as SharePoint names them. */
export const graphItem = z.looseObject({
  id: graphId,
  eTag: z.string().optional(),
  lastModifiedDateTime: z.string().optional(),
  fields: z.record(z.string(), z.unknown()).optional(),
});

/** One page of a collection (`value`), with the verbatim link to the next page when there is one. */
export function graphPage<T extends z.ZodType>(entry: T) {
  return z.looseObject({
    value: z.array(entry),
    '@odata.nextLink': link.optional(),
  });
}

export const itemsPage = graphPage(graphItem);

/**
 * One entry of a delta page: an item, or a deletion (`deleted` facet, or `@removed` in the shape
 * some Graph versions send). Either way it has an id.
 */
export const deltaEntry = z.looseObject({
  id: graphId,
  deleted: z.unknown().optional(),
  '@removed': z.unknown().optional(),
});

export const deltaPage = z.looseObject({
  value: z.array(deltaEntry),
  '@odata.nextLink': link.optional(),
  '@odata.deltaLink': link.optional(),
});

/** `GET /sites/{host}:/{path}`. */
export const graphSite = z.looseObject({
  id: z.string().min(1),
  displayName: z.string().optional(),
  webUrl: z.string().optional(),
});

/** An entry of `GET /sites/{id}/lists?$filter=displayName eq …`. */
export const listsPage = graphPage(
  z.looseObject({
    id: z.string().min(1),
    displayName: z.string().optional(),
  }),
);

/** An entry of `GET …/columns`; type facets (`text`, `number`, `dateTime`, …) stay as sent. */
export const graphColumn = z.looseObject({
  name: z.string().min(1),
  displayName: z.string().optional(),
  indexed: z.boolean().optional(),
  hidden: z.boolean().optional(),
  readOnly: z.boolean().optional(),
});

export const columnsPage = graphPage(graphColumn);

/** `PATCH …/items/{id}/fields` answers with the item's columns after the change. */
export const updatedFields = z.record(z.string(), z.unknown());

/** `POST /subscriptions` and `PATCH /subscriptions/{id}`. */
export const graphSubscription = z.looseObject({
  id: z.string().min(1),
  expirationDateTime: z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'not a date and time'),
});

/** `PATCH /subscriptions/{id}` may leave out the id it was addressed by. */
export const renewedSubscription = graphSubscription.partial({ id: true });

/** A successful answer of the token endpoint. The token itself never appears in a message. */
export const tokenAnswer = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().nonnegative().optional(),
});

/** The token endpoint's refusal (`error`, `error_description`). Both optional: the status is enough. */
export const tokenRefusal = z.looseObject({
  error: z.string().optional(),
  error_description: z.string().optional(),
});

/** Graph's error body. */
export const graphErrorBody = z.looseObject({
  error: z.looseObject({ code: z.string().optional(), message: z.string().optional() }),
});

/**
 * Checks an answer against its schema. On a mismatch the message names what was asked, where in the
 * answer the problem is and what was expected, never a value from the answer: a token answer carries
 * the token, an item carries people's data.
 */
export function readAnswer<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new SharePointError(
    'protocol',
    `${what} was not in the expected form (${describeIssues(parsed.error)}).`,
    {
      // the service, or something in front of it, sent nonsense: worth trying again later, not now
      retryable: true,
    },
  );
}

function describeIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'the answer';
    return `${where}: ${issueText(issue)}`;
  });
  const more = error.issues.length - shown.length;
  return more > 0 ? `${shown.join('; ')}; and ${more} more` : shown.join('; ');
}

/** Zod's wording says what was expected and what type arrived, not the value; kept short. */
function issueText(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'too_small':
      return 'empty or too small';
    case 'invalid_union':
      return 'not an id';
    case 'invalid_format':
      return `not a ${issue.format}`;
    default:
      return 'not valid';
  }
}
