import { DateInput, type DateInputProps } from '@mantine/dates'
import { useState } from 'react'
import { usePeopleWords } from './words'

/**
 * A typeable YYYY-MM-DD date field whose calendar and clear buttons have names. Escape while its
 * calendar is open closes the calendar only, not the dialog the field is in (a dialog closes on an
 * Escape that no open dropdown marked as its own). After a day is picked the calendar closes, and
 * the next Escape is still the field's: an extra key press, rather than a lost dialog.
 */
export function DateField(props: DateInputProps) {
  const w = usePeopleWords().shared
  const [calendarOpen, setCalendarOpen] = useState(false)
  return (
    <DateInput
      valueFormat="YYYY-MM-DD"
      previousLabel={w.previousMonth}
      nextLabel={w.nextMonth}
      clearButtonProps={{ 'aria-label': w.clear }}
      {...props}
      data-mantine-stop-propagation={calendarOpen || undefined}
      onFocus={(event) => {
        setCalendarOpen(true)
        props.onFocus?.(event)
      }}
      onClick={(event) => {
        setCalendarOpen(true)
        props.onClick?.(event)
      }}
      onBlur={(event) => {
        setCalendarOpen(false)
        props.onBlur?.(event)
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') setCalendarOpen(false)
        props.onKeyDown?.(event)
      }}
    />
  )
}
