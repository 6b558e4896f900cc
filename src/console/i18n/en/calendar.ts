/** The company calendar's words for holidays in bulk (issue 27): date ranges, pasted lists, presets, the year shown. */
export const calendar = {
  year: {
    previous: 'Previous year',
    next: 'Next year',
  },
  statutory: 'Statutory holiday',
  statutoryHelp: 'Paid at 300 % when worked',
  statutoryColumn: 'Statutory',
  savedIn: (days: number, year: number) => (days === 1 ? `1 day saved; showing ${year}` : `${days} days saved; showing ${year}`),
  range: {
    title: 'Add holidays or make-up work days',
    from: 'From',
    to: 'To',
    beforeFrom: 'On or after the first date',
    tooMany: (max: number) => `At most ${max} days at once`,
    add: (days: number) => (days === 1 ? 'Add 1 day' : `Add ${days} days`),
    note: 'Leave “To” empty for one day. Every date of the range gets this kind and name; dates already in the calendar are replaced.',
  },
  paste: {
    open: 'Paste or import a list',
    title: 'Paste or import calendar days',
    help: 'One day a line: date,kind,name,statutory — kind is holiday or workday, statutory (yes or no) may be left out — or just date,name for a holiday. A first line that starts with “date” is a header. Commas or tabs separate the fields.',
    text: 'Days, one a line',
    file: 'Or read a CSV file',
    preview: (lines: number, problems: number) =>
      problems === 0
        ? `${lines} ${lines === 1 ? 'line' : 'lines'}, all correct. Nothing is saved until you confirm.`
        : `${lines} ${lines === 1 ? 'line' : 'lines'}, ${problems} with problems: fix them first. Nothing is saved until you confirm.`,
    table: 'Preview of the days to save',
    line: 'Line',
    check: 'Check',
    correct: 'OK',
    save: (days: number) => (days === 1 ? 'Save 1 day' : `Save ${days} days`),
    empty: 'Paste lines above, or read a file, to see them here before saving.',
    problems: {
      fields: 'Write date,kind,name[,statutory] or date,name',
      date: 'The date is not written YYYY-MM-DD',
      unrealDate: 'There is no such date',
      kind: 'The kind must be holiday or workday',
      name: 'The name is missing',
      longName: 'The name is longer than 100 characters',
      statutory: 'Statutory must be yes or no',
      statutoryWorkday: 'Only a holiday can be statutory',
      repeated: (line: number) => `The same date as line ${line}`,
      tooMany: (max: number) => `More than ${max} days: save them in parts`,
    },
  },
  preset: {
    open: 'Apply a preset',
    title: 'Apply a holiday preset',
    choose: 'Preset',
    option: (country: string, year: number) => `${country} ${year}`,
    countries: { CN: 'China' } as Record<string, string>,
    source: 'Source',
    published: (date: string) => `published ${date}`,
    counts: (holidays: number, statutory: number, workdays: number) =>
      `${holidays} days off (${statutory} statutory) and ${workdays} make-up work days`,
    note: (company: string) =>
      `Every day of the preset is saved in the calendar of ${company} at once: dates already in it are replaced, other dates stay, and absences already recorded on its past holidays are removed.`,
    apply: 'Apply preset',
    applied: (days: number, year: number) => `Preset applied: ${days} days; showing ${year}`,
  },
}
