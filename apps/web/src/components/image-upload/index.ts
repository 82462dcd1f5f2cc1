export { ImageUploadButtons, ImageUploadSteps } from './ImageUploadControls';
export type { ImageUploadButtonsProps, ImageUploadStepsProps } from './ImageUploadControls';
export { sendImageUpload, type ImageUploadRequest } from './send-image-upload';
export { useImageUpload, type ImageUpload, type ImageUploadStage } from './use-image-upload';
