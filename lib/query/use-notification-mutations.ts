import { notificationKeys, postNoticeTest, putNotifySettings } from "./notifications";
import { useInvalidatingMutation } from "./use-invalidating-mutation";

/** A test changes no notice, but the audit log has its entry: nothing of this page to refresh. */
export const useSendNoticeTest = () => useInvalidatingMutation(postNoticeTest, []);

/** New settings: the settings shown. */
export const useSaveNotifySettings = (onSaved: () => void) =>
  useInvalidatingMutation(putNotifySettings, [notificationKeys.settings()], { onSuccess: onSaved });
