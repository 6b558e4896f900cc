import { Alert, Button, Stack, Text } from '@mantine/core'
import { Component, type ReactNode } from 'react'

interface Props {
  /** the words of the alert, from the caller's dictionary (a class component cannot use the hook) */
  title: string
  retry: string
  children: ReactNode
}

/**
 * A page that throws while rendering shows an alert in its place; the navigation, the header and
 * the other pages keep working. The shell keys it by address, so opening another page starts afresh.
 */
export class PageBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null }

  static getDerivedStateFromError(error: Error) {
    return { error }
  }

  override render() {
    const { error } = this.state
    if (!error) return this.props.children
    return (
      <Alert color="red" title={this.props.title} role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{error.message}</Text>
          <Button size="xs" variant="default" onClick={() => this.setState({ error: null })}>
            {this.props.retry}
          </Button>
        </Stack>
      </Alert>
    )
  }
}
