/* The payroll computation's pure part (CONTRACT §16, §17): what the service calls. */
export { computePayslip } from './payslip'
export { monthBounds, monthFacts, type FactSources, type MonthDetail } from './month-facts'
export { evaluateFormula, formulaGives, type EvaluatedPart } from './formula'
export { bracketOf, declaredMonths, FIRST_TAX_MONTH, monthsThrough, TAX_TABLES, taxLine, taxTableFor, type TaxBracket, type TaxLineInput, type TaxTable } from './tax'
export * from './types'
export { contributionLines, itemBase, RATE_SCALE, schemeInEffect, type Contributions } from './contributions'
