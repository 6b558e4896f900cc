import { Button, Group, Modal, Text } from '@mantine/core'
import { useT } from '../i18n'

interface Props {
  opened: boolean
  title: string
  text: string
  /** an extra sentence under the text */
  note?: string
  /** the confirming button's name ("Cancel request", "Delete") */
  confirm: string
  /** the dismissing button's name ("Keep it"); the common "Cancel" when left out */
  dismiss?: string
  onClose: () => void
  onConfirm: () => void
  loading?: boolean
}

/** A titled dialog that asks before a change that cannot be undone. */
export function Confirm({ opened, title, text, note, confirm, dismiss, onClose, onConfirm, loading }: Props) {
  const t = useT()
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered closeButtonProps={{ 'aria-label': t.common.close }}>
      <Text>{text}</Text>
      {note && (
        <Text size="sm" c="dimmed" mt="xs">
          {note}
        </Text>
      )}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {dismiss ?? t.common.cancel}
        </Button>
        <Button color="red.9" loading={loading} onClick={onConfirm}>
          {confirm}
        </Button>
      </Group>
    </Modal>
  )
}
