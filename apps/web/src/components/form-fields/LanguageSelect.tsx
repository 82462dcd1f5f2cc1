import '@mantine/core/styles/Input.layer.css';
import { NativeSelect, type NativeSelectProps } from '@mantine/core';
import { supportedLanguages } from '@telemedicina/shared/i18n';
import { forwardRef } from 'react';
import { useTranslation } from 'react-i18next';

/** A native select of the application's languages, each named in the current language. */
export const LanguageSelect = forwardRef<HTMLSelectElement, Omit<NativeSelectProps, 'data'>>(
  function LanguageSelect({ label, ...props }, ref) {
    const { t } = useTranslation();
    return (
      <NativeSelect
        ref={ref}
        label={label ?? t('auth.fields.language')}
        data={supportedLanguages.map((option) => ({ value: option, label: t(`languages.${option}.name`) }))}
        {...props}
      />
    );
  },
);
