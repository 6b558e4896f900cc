import { add, decimalText, div, max, min, mul, parseDecimal, rational, roundToFen, sub, type Rational } from '../../../lib/rational'
import { yuanText } from '../../../lib/money'

/*
 * A payslip line's formula (CONTRACT §16): its arithmetic with its numbers, one or more parts
 * `[label: ]expression = result` joined by '; '. An expression has numbers ('-' is their sign),
 * `+ − × ÷` (U+2212 and the multiplication and division signs), parentheses, `max(a, b)` and `min(a, b)`;
 * evaluated exactly and rounded half up to 2 decimals it gives the result, and the last part's
 * result is the line's amount. The builders below write it; `evaluateFormula` reads it back, so
 * the service can check every line it stores against its own text.
 */

export const PLUS = '+'
export const MINUS = '−'
export const TIMES = '×'
export const DIVIDED = '÷'
export const PART_SEPARATOR = '; '

/** Money in a formula: yuan with 2 decimals (1050000 fen → "10500.00"). */
export const money = (fen: number): string => yuanText(fen)

/** Days, minutes, counts, ratios: as few decimals as the number needs (21.75, 1.5, 22). */
export const figure = (value: Rational | number): string =>
  // a safe integer Number prints as its digits, as decimalText writes it (-0 as "0"); anything else is checked by `rational`
  typeof value === 'number' ? (Number.isSafeInteger(value) ? String(value) : decimalText(rational(value))) : decimalText(value)

/** A ratio shown with at least 2 decimals (a tax rate: 0.10). */
export const rate = (value: Rational): string => decimalText(value, 2)

/** Terms joined by an operator with its spaces: `join(TIMES, 'a', 'b')` → "a × b". */
export function join(operator: string, ...terms: string[]): string {
  // concatenated rather than Array#join: a payslip writes a few dozen of these
  const separator = ` ${operator} `
  let text = terms.length === 0 ? '' : terms[0]
  for (let at = 1; at < terms.length; at++) text += separator + terms[at]
  return text
}

export const maxOf = (a: string, b: string): string => `max(${a}, ${b})`
export const minOf = (a: string, b: string): string => `min(${a}, ${b})`

/** One part: "label: expression = result" (result in fen, written in yuan). */
export const part = (expression: string, resultFen: number, label?: string): string =>
  `${label ? `${label}: ` : ''}${expression} = ${yuanText(resultFen)}`

export const parts = (...each: string[]): string => each.join(PART_SEPARATOR)

// ---- reading a formula back ----

export interface EvaluatedPart {
  label: string | null
  expression: string
  /** the expression's exact value */
  exact: Rational
  /** the result the text states */
  stated: Rational
  /** the exact value rounded half up to fen equals the stated result */
  holds: boolean
}

const TOKEN = /\s*(?:(-?\d+(?:\.\d+)?)|(max|min)|([+−×÷(),]))/y
const RESULT = /^-?\d+\.\d{2}$/

type Token = { number: Rational } | { word: string }

function tokenize(expression: string): Token[] {
  const tokens: Token[] = []
  TOKEN.lastIndex = 0
  while (TOKEN.lastIndex < expression.length) {
    const at = TOKEN.lastIndex
    const match = TOKEN.exec(expression)
    if (!match) {
      if (expression.slice(at).trim() === '') break
      throw new SyntaxError(`unexpected text at ${at}: ${expression.slice(at)}`)
    }
    tokens.push(match[1] !== undefined ? { number: parseDecimal(match[1]) } : { word: match[2] ?? match[3] })
  }
  return tokens
}

/** Recursive descent over expression := term (('+'|'−') term)*, term := factor (('×'|'÷') factor)*. */
function evaluateExpression(expression: string): Rational {
  const tokens = tokenize(expression)
  let at = 0
  const peek = (): string | null => {
    const token = tokens[at]
    return token && 'word' in token ? token.word : null
  }
  const expect = (word: string) => {
    if (peek() !== word) throw new SyntaxError(`expected '${word}' in: ${expression}`)
    at++
  }
  const factor = (): Rational => {
    const token = tokens[at]
    if (!token) throw new SyntaxError(`unexpected end of: ${expression}`)
    at++
    if ('number' in token) return token.number
    if (token.word === '(') {
      const value = sum()
      expect(')')
      return value
    }
    if (token.word === 'max' || token.word === 'min') {
      expect('(')
      const first = sum()
      expect(',')
      const second = sum()
      expect(')')
      return token.word === 'max' ? max(first, second) : min(first, second)
    }
    throw new SyntaxError(`unexpected '${token.word}' in: ${expression}`)
  }
  const product = (): Rational => {
    let value = factor()
    for (let word = peek(); word === TIMES || word === DIVIDED; word = peek()) {
      at++
      value = word === TIMES ? mul(value, factor()) : div(value, factor())
    }
    return value
  }
  const sum = (): Rational => {
    let value = product()
    for (let word = peek(); word === PLUS || word === MINUS; word = peek()) {
      at++
      value = word === PLUS ? add(value, product()) : sub(value, product())
    }
    return value
  }
  const value = sum()
  if (at !== tokens.length) throw new SyntaxError(`unexpected text after the expression: ${expression}`)
  return value
}

const LABEL = /^([^:=]+): (.+)$/s

/** Each part of a formula with its exact value and its stated result; throws on text outside the grammar. */
export function evaluateFormula(text: string): EvaluatedPart[] {
  return text.split(PART_SEPARATOR).map((whole) => {
    const labelled = LABEL.exec(whole)
    const body = labelled ? labelled[2] : whole
    const equals = body.lastIndexOf(' = ')
    if (equals < 0) throw new SyntaxError(`no ' = ' in: ${whole}`)
    const expression = body.slice(0, equals)
    const result = body.slice(equals + 3)
    if (!RESULT.test(result)) throw new SyntaxError(`not a result with 2 decimals: ${result}`)
    const exact = evaluateExpression(expression)
    const stated = parseDecimal(result)
    return { label: labelled ? labelled[1] : null, expression, exact, stated, holds: roundToFen(exact) === roundToFen(stated) }
  })
}

/** Every part holds and the last one states `amount` (fen): the line is what its formula says. */
export function formulaGives(text: string, amount: number): boolean {
  const evaluated = evaluateFormula(text)
  return evaluated.every((each) => each.holds) && roundToFen(evaluated[evaluated.length - 1].stated) === amount
}
