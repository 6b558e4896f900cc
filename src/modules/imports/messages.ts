import { defineMessages, ruleText } from '../../lib/messages'

/**
 * The messages every CSV import shares (the employees', the attendance history's, the opening
 * balances'): the file, its header, its cells, and the 400 that lists a file's problems.
 */
export const say = defineMessages('imports', {
  // the file as bytes and text (employees/import/csv.ts, upload.ts)
  empty: {
    en: 'The file is empty; send a CSV file whose first row names the columns',
    zh: '文件是空的；请发送第一行为列名的 CSV 文件',
  },
  utf16: {
    en: 'The file is UTF-16 text, not UTF-8; save it from your spreadsheet program as "CSV UTF-8 (comma delimited)"',
    zh: '文件是 UTF-16 文本，不是 UTF-8；请在表格软件中另存为“CSV UTF-8（逗号分隔）”',
  },
  workbook: {
    en: 'The file is a workbook (.xlsx or .ods), not CSV; save it from your spreadsheet program as "CSV UTF-8 (comma delimited)"',
    zh: '文件是工作簿（.xlsx 或 .ods），不是 CSV；请在表格软件中另存为“CSV UTF-8（逗号分隔）”',
  },
  oldWorkbook: {
    en: 'The file is an old Excel workbook (.xls), not CSV; save it from your spreadsheet program as "CSV UTF-8 (comma delimited)"',
    zh: '文件是旧版 Excel 工作簿（.xls），不是 CSV；请在表格软件中另存为“CSV UTF-8（逗号分隔）”',
  },
  notUtf8: {
    en: 'The file is not UTF-8 text (it may be in a regional encoding such as GBK or Windows-1252); save it from your spreadsheet program as "CSV UTF-8 (comma delimited)"',
    zh: '文件不是 UTF-8 文本（可能是 GBK、Windows-1252 等本地编码）；请在表格软件中另存为“CSV UTF-8（逗号分隔）”',
  },
  nulCharacter: {
    en: 'The file contains the NUL character, so it is not a text file; send a CSV file',
    zh: '文件含有 NUL 字符，不是文本文件；请发送 CSV 文件',
  },
  tooManyRows: {
    en: 'The file has more than {most} rows of {rows}; import at most {most} at a time (split the file)',
    zh: '文件中的{rows}超过 {most} 行；每次最多导入 {most} 行（请拆分文件）',
  },
  notCsvAt: { en: 'The file is not valid CSV at row {row}: {problem}', zh: '文件在第 {row} 行不是有效的 CSV：{problem}' },
  notCsv: { en: 'The file is not valid CSV: {problem}', zh: '文件不是有效的 CSV：{problem}' },
  quoteNotClosed: {
    en: 'a cell opens a double quote that is never closed; close it, or double a quote that is part of the text ("")',
    zh: '某个单元格的双引号没有闭合；请补上闭合的引号，或把文本中的引号写成两个（""）',
  },
  textAfterQuote: {
    en: 'a quoted cell has text after its closing quote; a quote inside a quoted cell is written twice ("")',
    zh: '某个带引号的单元格在闭合引号之后还有文字；带引号的单元格中的引号要写成两个（""）',
  },
  quoteInPlainCell: {
    en: 'a cell that is not quoted contains a double quote; quote the whole cell and write the quote twice ("say ""hi""")',
    zh: '某个没有加引号的单元格含有双引号；请给整个单元格加上引号，并把其中的引号写成两个（"say ""hi"""）',
  },
  parserSaid: { en: '{detail}', zh: 'CSV 格式有误（{detail}）' },
  onlyBlankRows: {
    en: 'The file has no rows, only blank ones; its first row must name the columns ({columns})',
    zh: '文件只有空行；第一行必须是列名（{columns}）',
  },
  headerOnly: {
    en: 'The file has a header but no {rows}; add one row per {row} below it',
    zh: '文件只有表头，没有{rows}；请在表头下方为每{row}添加一行',
  },
  tooLarge: {
    en: 'The file is larger than {mib} MiB; an import takes at most {rows} rows: split the file',
    zh: '文件超过 {mib} MiB；每次导入最多 {rows} 行：请拆分文件',
  },
  oneFile: { en: 'Send one CSV file, in the field "file"', zh: '请只发送一个 CSV 文件，放在字段 "file" 中' },
  isOneFile: { en: 'is one file', zh: '只能是一个文件' },
  noFile: { en: 'No file: send the CSV file in the multipart field "file"', zh: '没有文件：请在 multipart 字段 "file" 中发送 CSV 文件' },
  noFileButText: {
    en: 'No file: send the CSV file in the multipart field "file" (it came as text: attach the file, e.g. curl -F file=@employees.csv)',
    zh: '没有文件：请在 multipart 字段 "file" 中发送 CSV 文件（收到的是文本：请以附件形式发送，例如 curl -F file=@employees.csv）',
  },

  // the header (imports/columns.ts, employees/import/rows.ts)
  semicolons: { en: 'semicolons', zh: '分号' },
  tabs: { en: 'tabs', zh: '制表符' },
  separatedBy: {
    en: 'The file separates its cells with {separator}; save it as "CSV UTF-8 (comma delimited)", with commas',
    zh: '文件用{separator}分隔单元格；请另存为“CSV UTF-8（逗号分隔）”，用逗号分隔',
  },
  separatesBy: { en: 'separates cells with {separator}, not commas', zh: '用{separator}分隔单元格，而不是逗号' },
  unnamedColumn: {
    en: 'column {column} has no name in the header, but row {row} has a value in it; name the column or delete it',
    zh: '{column} 列在表头中没有列名，但第 {row} 行在该列有值；请填写列名或删除该列',
  },
  unknownColumn: {
    en: 'column {column} is not a column of the import; the columns are {columns}',
    zh: '{column} 列不是可导入的列；可导入的列为 {columns}',
  },
  notImportedColumn: { en: 'column {column} is not imported: {hint}', zh: '{column} 列不导入：{hint}' },
  repeatedColumn: { en: 'is the name of columns {first} and {second}; keep one', zh: '同时是 {first} 列和 {second} 列的列名；请只保留一列' },
  missingColumn: { en: 'the header has no column "{column}"; the import needs one', zh: '表头中没有“{column}”列；导入需要这一列' },

  // a row's cells (imports/columns.ts, employees/import/rows.ts)
  commaInCell: {
    en: 'has {cells} cells but the header has {width}: quote a cell that holds a comma ({example})',
    zh: '有 {cells} 个单元格，但表头有 {width} 个：含逗号的单元格请加引号（{example}）',
  },
  missingCommas: {
    en: 'has {cells} cells but the header has {width}: add the missing commas',
    zh: '有 {cells} 个单元格，但表头有 {width} 个：请补上缺少的逗号',
  },
  repeatedValue: { en: '"{value}" is also in row {row}', zh: '“{value}”与第 {row} 行重复' },

  // the 400 of a file with problems (employees/import/rows.ts rowsRefused)
  fileRefused: {
    en: 'The file has {count}; nothing was imported. Row {row}, {field}: {problem}',
    zh: '文件{count}，未导入任何数据。第 {row} 行，{field}：{problem}',
  },
  problemCount: { en: '{n} problem{n:s}', zh: '中有 {n} 处问题' },
  problemCountInRows: { en: '{n} problem{n:s} in {rows} rows', zh: '中的 {rows} 行共有 {n} 处问题' },
})

/** The rule texts of the imports' models. */
export const rules = {
  dryRun: ruleText({
    en: 'dry_run must be true (check the file and write nothing) or false (import it)',
    zh: 'dry_run 必须是 true（只检查文件，不写入）或 false（导入）',
  }),
}
