import { useT } from '../i18n'
import { Confirm } from './Confirm'

interface Props {
  /** what is deleted, as the question names it ("Li Wei"); null: the dialog is closed */
  what: string | null
  onClose: () => void
  onConfirm: () => void
  loading?: boolean
  /** an extra sentence under the question */
  note?: string
}

/** The confirmation every deletion asks for, in a titled dialog. */
export function ConfirmDelete({ what, onClose, onConfirm, loading, note }: Props) {
  const t = useT()
  return (
    <Confirm
      opened={what !== null}
      title={t.common.confirmDeleteTitle}
      text={what === null ? '' : t.common.confirmDelete(what)}
      note={note}
      confirm={t.common.delete}
      onClose={onClose}
      onConfirm={onConfirm}
      loading={loading}
    />
  )
}
