import { useEffect, useState, useSyncExternalStore } from 'react';
import { createUploadManager, type UploadManager, type UploadManagerOptions } from './upload-manager';

/** One upload manager for the component's lifetime, following the latest options; uploads are aborted on unmount. */
export function useUploadManager(options: UploadManagerOptions): {
  manager: UploadManager;
  items: ReturnType<UploadManager['getItems']>;
} {
  const [manager] = useState(() => createUploadManager(options));
  useEffect(() => {
    manager.configure(options);
  }, [manager, options]);
  useEffect(
    () => () => {
      for (const item of manager.getItems()) {
        manager.cancel(item.id);
      }
    },
    [manager],
  );
  const items = useSyncExternalStore(manager.subscribe, manager.getItems, manager.getItems);
  return { manager, items };
}
