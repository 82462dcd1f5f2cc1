import { useId } from 'react';

/** The product's mark: a speech bubble holding a medical cross (a visit that happens in a conversation). */
export function BrandMark({ size = 36, title }: { size?: number; title?: string }) {
  const gradientId = useId();
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 48 48"
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
    >
      {title ? <title>{title}</title> : null}
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#1c90a5" />
          <stop offset="1" stopColor="#075867" />
        </linearGradient>
      </defs>
      <path
        d="M10 6h28a6 6 0 0 1 6 6v20a6 6 0 0 1-6 6H22l-9 7.5V38h-3a6 6 0 0 1-6-6V12a6 6 0 0 1 6-6z"
        fill={`url(#${gradientId})`}
      />
      <path d="M21 12.5h6v6.5h6.5v6H27v6.5h-6V25h-6.5v-6H21z" fill="#fff" />
    </svg>
  );
}
