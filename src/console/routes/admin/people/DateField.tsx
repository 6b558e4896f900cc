import { DateInput, type DateInputProps } from '@mantine/dates'
import { usePeopleWords } from './words'

/** A typeable YYYY-MM-DD date field whose calendar and clear buttons have names. */
export function DateField(props: DateInputProps) {
  const w = usePeopleWords().shared
  return (
    <DateInput
      valueFormat="YYYY-MM-DD"
      previousLabel={w.previousMonth}
      nextLabel={w.nextMonth}
      clearButtonProps={{ 'aria-label': w.clear }}
      {...props}
    />
  )
}
