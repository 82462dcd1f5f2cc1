import '@mantine/core/styles/Input.layer.css';
import { ComboboxChevron, TextInput, type SelectProps } from '@mantine/core';
import { forwardRef, lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { timeZoneLabel } from '../../lib/time-zones';

export interface TimeZoneSelectProps extends Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'searchable' | 'nothingFoundMessage'
> {
  value: string;
  onChange: (zone: string) => void;
}

const LazyTimeZoneSelectField = lazy(async () => ({
  default: (await import('./TimeZoneSelectField')).TimeZoneSelectField,
}));

/**
 * A searchable select of every IANA time zone, labelled in words ("(GMT+01:00) hora de Madrid"); the current
 * value is kept in the list even when the browser does not know it. Label defaults to "Time zone".
 * The select itself is fetched when first shown (it is heavy and the sign-in page never needs it);
 * meanwhile a read-only field with the same label and value holds its place.
 */
export const TimeZoneSelect = forwardRef<HTMLInputElement, TimeZoneSelectProps>(
  function TimeZoneSelect(props, ref) {
    const { t, i18n } = useTranslation();
    const { value, label, description, error, required, withAsterisk, disabled, size, className, style } =
      props;
    return (
      <Suspense
        fallback={
          <TextInput
            ref={ref}
            label={label ?? t('auth.fields.timeZone')}
            description={description}
            error={error}
            required={required}
            withAsterisk={withAsterisk}
            disabled={disabled}
            size={size}
            className={className}
            style={style}
            value={value ? timeZoneLabel(value, i18n.language) : ''}
            rightSection={<ComboboxChevron size={size} error={error} />}
            rightSectionPointerEvents="none"
            readOnly
          />
        }
      >
        <LazyTimeZoneSelectField ref={ref} {...props} />
      </Suspense>
    );
  },
);
