import { type DragEvent, useState } from 'react'

/**
 * A place a desk's files can be dropped on: whether files are over it now (for its style), and the
 * handlers that take them. A drag of anything but files (text, a photo being reordered) is left
 * to the browser. The photos and the inventory import both take files this way.
 */
export function useFileDrop(take: (files: File[]) => void) {
  const [dropping, setDropping] = useState(false)
  const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files')
  const handlers = {
    onDragOver(event: DragEvent) {
      if (!carriesFiles(event)) return
      event.preventDefault()
      setDropping(true)
    },
    onDragLeave: () => setDropping(false),
    onDrop(event: DragEvent) {
      if (!carriesFiles(event)) return
      event.preventDefault()
      setDropping(false)
      take([...event.dataTransfer.files])
    },
  }
  return { dropping, handlers }
}
