/**
 * The `$filter` subset Graph accepts on list items:
 *   expr    := and ('or' and)*
 *   and     := unary ('and' unary)*
 *   unary   := 'not' unary | '(' expr ')' | 'startswith' '(' operand ',' string ')' | operand op literal
 *   operand := 'fields/' Name | 'id'
 *   literal := 'str' ('' escapes a quote) | number | true | false | null
 */
import type { ColumnType, FieldValue } from './types';

export type CmpOp = 'eq' | 'ne' | 'lt' | 'gt' | 'le' | 'ge';
export type Literal = string | number | boolean | null;
export type Operand = { kind: 'field'; name: string } | { kind: 'id' };

export type FilterNode =
  | { kind: 'and' | 'or'; left: FilterNode; right: FilterNode }
  | { kind: 'not'; expr: FilterNode }
  | { kind: 'cmp'; op: CmpOp; operand: Operand; value: Literal }
  | { kind: 'startswith'; operand: Operand; value: string };

export class FilterError extends Error {}

type Token =
  | { t: 'punct'; v: '(' | ')' | ',' }
  | { t: 'string'; v: string }
  | { t: 'number'; v: number }
  | { t: 'word'; v: string };

const CMP_OPS = new Set<string>(['eq', 'ne', 'lt', 'gt', 'le', 'ge']);

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '(' || ch === ')' || ch === ',') {
      tokens.push({ t: 'punct', v: ch });
      i++;
    } else if (ch === "'") {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new FilterError('Unterminated string literal');
        const c = text[i]!;
        if (c === "'") {
          if (text[i + 1] === "'") {
            value += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += c;
        i++;
      }
      tokens.push({ t: 'string', v: value });
    } else {
      const num = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
      if (num && (ch !== '-' || /\d/.test(text[i + 1] ?? ''))) {
        const after = text[i + num[0].length];
        if (after !== undefined && /[A-Za-z_:]/.test(after)) {
          throw new FilterError(`Unexpected '${num[0]}${after}' at position ${i}`);
        }
        tokens.push({ t: 'number', v: Number(num[0]) });
        i += num[0].length;
        continue;
      }
      const word = /^[A-Za-z_][A-Za-z0-9_/.]*/.exec(text.slice(i));
      if (!word) throw new FilterError(`Unexpected character '${ch}' at position ${i}`);
      tokens.push({ t: 'word', v: word[0] });
      i += word[0].length;
    }
  }
  return tokens;
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): FilterNode {
    if (this.tokens.length === 0) throw new FilterError('Empty filter');
    const node = this.or();
    if (this.pos < this.tokens.length) throw new FilterError('Unexpected trailing tokens');
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private next(): Token {
    const tok = this.tokens[this.pos++];
    if (!tok) throw new FilterError('Unexpected end of filter');
    return tok;
  }

  private isWord(word: string): boolean {
    const tok = this.peek();
    return tok?.t === 'word' && tok.v.toLowerCase() === word;
  }

  private expectPunct(v: '(' | ')' | ','): void {
    const tok = this.next();
    if (tok.t !== 'punct' || tok.v !== v) throw new FilterError(`Expected '${v}'`);
  }

  private or(): FilterNode {
    let left = this.and();
    while (this.isWord('or')) {
      this.pos++;
      left = { kind: 'or', left, right: this.and() };
    }
    return left;
  }

  private and(): FilterNode {
    let left = this.unary();
    while (this.isWord('and')) {
      this.pos++;
      left = { kind: 'and', left, right: this.unary() };
    }
    return left;
  }

  private unary(): FilterNode {
    const tok = this.peek();
    if (tok?.t === 'punct' && tok.v === '(') {
      this.pos++;
      const inner = this.or();
      this.expectPunct(')');
      return inner;
    }
    if (this.isWord('not')) {
      this.pos++;
      return { kind: 'not', expr: this.unary() };
    }
    if (this.isWord('startswith')) {
      this.pos++;
      this.expectPunct('(');
      const operand = this.operand();
      this.expectPunct(',');
      const lit = this.next();
      if (lit.t !== 'string') throw new FilterError('startswith needs a string literal');
      this.expectPunct(')');
      return { kind: 'startswith', operand, value: lit.v };
    }
    const operand = this.operand();
    const op = this.next();
    if (op.t !== 'word' || !CMP_OPS.has(op.v.toLowerCase()))
      throw new FilterError('Expected a comparison operator');
    return { kind: 'cmp', op: op.v.toLowerCase() as CmpOp, operand, value: this.literal() };
  }

  private operand(): Operand {
    const tok = this.next();
    if (tok.t !== 'word') throw new FilterError('Expected fields/<Name> or id');
    if (tok.v === 'id') return { kind: 'id' };
    const m = /^fields\/([A-Za-z_][A-Za-z0-9_]*)$/.exec(tok.v);
    if (!m) throw new FilterError(`Unsupported operand '${tok.v}': field references need the fields/ prefix`);
    return { kind: 'field', name: m[1]! };
  }

  private literal(): Literal {
    const tok = this.next();
    if (tok.t === 'string' || tok.t === 'number') return tok.v;
    if (tok.t === 'word') {
      const w = tok.v.toLowerCase();
      if (w === 'true') return true;
      if (w === 'false') return false;
      if (w === 'null') return null;
    }
    throw new FilterError('Expected a literal');
  }
}

export function parseFilter(text: string): FilterNode {
  return new Parser(tokenize(text)).parse();
}

export function referencedFields(node: FilterNode): string[] {
  const out = new Set<string>();
  const walk = (n: FilterNode): void => {
    switch (n.kind) {
      case 'and':
      case 'or':
        walk(n.left);
        walk(n.right);
        break;
      case 'not':
        walk(n.expr);
        break;
      default:
        if (n.operand.kind === 'field') out.add(n.operand.name);
    }
  };
  walk(node);
  return [...out];
}

/** What the evaluator needs to know about an operand on one item. */
export interface OperandValue {
  type: ColumnType | 'id';
  value: FieldValue | undefined;
}

type Comparable = number | string | boolean;

/** Brings a literal into the column's domain so comparisons are by value, not by spelling. */
function normaliseLiteral(type: OperandValue['type'], lit: Exclude<Literal, null>): Comparable {
  switch (type) {
    case 'id':
    case 'number': {
      const n = typeof lit === 'number' ? lit : Number(lit);
      if (typeof lit === 'boolean' || !Number.isFinite(n)) throw new FilterError(`'${lit}' is not a number`);
      return n;
    }
    case 'boolean':
      if (typeof lit === 'boolean') return lit;
      if (lit === 1 || lit === 0) return lit === 1;
      throw new FilterError(`'${lit}' is not a boolean`);
    case 'dateTime':
    case 'dateOnly': {
      const ms = typeof lit === 'string' ? Date.parse(lit) : Number.NaN;
      if (Number.isNaN(ms)) throw new FilterError(`'${lit}' is not a date`);
      return ms;
    }
    default:
      // SharePoint text comparisons are case-insensitive.
      return String(lit).toLowerCase();
  }
}

function normaliseStored(type: OperandValue['type'], value: FieldValue): Comparable {
  switch (type) {
    case 'id':
    case 'number':
      return Number(value);
    case 'boolean':
      return value === true;
    case 'dateTime':
    case 'dateOnly':
      return Date.parse(String(value));
    default:
      return String(value).toLowerCase();
  }
}

/** Checks literal types up front so a bad filter fails with 400 even on an empty list. */
export function validateFilter(node: FilterNode, typeOf: (operand: Operand) => OperandValue['type']): void {
  switch (node.kind) {
    case 'and':
    case 'or':
      validateFilter(node.left, typeOf);
      validateFilter(node.right, typeOf);
      return;
    case 'not':
      validateFilter(node.expr, typeOf);
      return;
    case 'startswith':
      typeOf(node.operand);
      return;
    case 'cmp':
      if (node.value !== null) normaliseLiteral(typeOf(node.operand), node.value);
  }
}

export function evaluateFilter(node: FilterNode, resolve: (operand: Operand) => OperandValue): boolean {
  switch (node.kind) {
    case 'and':
      return evaluateFilter(node.left, resolve) && evaluateFilter(node.right, resolve);
    case 'or':
      return evaluateFilter(node.left, resolve) || evaluateFilter(node.right, resolve);
    case 'not':
      return !evaluateFilter(node.expr, resolve);
    case 'startswith': {
      const { value } = resolve(node.operand);
      return value !== undefined && String(value).toLowerCase().startsWith(node.value.toLowerCase());
    }
    case 'cmp': {
      const { type, value } = resolve(node.operand);
      if (node.value === null || value === undefined) {
        const bothEmpty = node.value === null && value === undefined;
        if (node.op === 'eq') return bothEmpty;
        if (node.op === 'ne') return !bothEmpty;
        return false;
      }
      const a = normaliseStored(type, value);
      const b = normaliseLiteral(type, node.value);
      switch (node.op) {
        case 'eq':
          return a === b;
        case 'ne':
          return a !== b;
        case 'lt':
          return a < b;
        case 'gt':
          return a > b;
        case 'le':
          return a <= b;
        case 'ge':
          return a >= b;
      }
    }
  }
}
