import { lazy } from 'react';

/** The cropper and its image decoders load only when a screen shows it. */
export const LazyImageCropper = lazy(() => import('./ImageCropper'));
export type { ImageCropperProps } from './ImageCropper';
export type { CroppedImage } from './crop-image';
export { croppableAccept } from './image-formats';
