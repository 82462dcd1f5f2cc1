import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/CheckboxIndicator.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/NumberInput.layer.css';
import '@mantine/core/styles/Radio.layer.css';
import '@mantine/core/styles/RadioIndicator.layer.css';
import '@mantine/core/styles/Slider.layer.css';
import { Checkbox, Group, NumberInput, Radio, Slider, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { Coding, QuestionnaireItem } from '@medplum/fhirtypes';
import {
  type AnswerValue,
  codingText,
  isScale,
  itemText,
  maxValueOf,
  minValueOf,
  unitOf,
} from '@telemedicina/shared/intake-logic';
import { useTranslation } from 'react-i18next';

export type Language = 'es' | 'en';

/** One question of the form as the patient answers it, by its FHIR item type. */
export function ItemField({
  item,
  language,
  value,
  error,
  onChange,
}: {
  item: QuestionnaireItem;
  language: Language;
  value: AnswerValue[];
  error: string | null;
  onChange: (given: AnswerValue[]) => void;
}) {
  const { t } = useTranslation();
  const label = itemText(item, language);
  const required = item.required === true;
  const first = value[0];
  const common = { label, required, error, 'data-linkid': item.linkId } as const;
  const options = (item.answerOption ?? []).flatMap((option) =>
    option.valueCoding?.code === undefined ? [] : [option.valueCoding],
  );
  const byCode = (code: string): Coding | undefined => options.find((option) => option.code === code);
  const coding = (code: string): AnswerValue => {
    const option = byCode(code);
    return { valueCoding: { ...(option?.system ? { system: option.system } : {}), code } };
  };

  switch (item.type) {
    case 'string':
      return (
        <TextInput
          {...common}
          defaultValue={first?.valueString ?? ''}
          onChange={(event) => {
            const text = event.currentTarget.value;
            onChange(text.trim() === '' ? [] : [{ valueString: text }]);
          }}
        />
      );
    case 'text':
      return (
        <Textarea
          {...common}
          autosize
          minRows={3}
          defaultValue={first?.valueString ?? ''}
          onChange={(event) => {
            const text = event.currentTarget.value;
            onChange(text.trim() === '' ? [] : [{ valueString: text }]);
          }}
        />
      );
    case 'date':
      return (
        <TextInput
          {...common}
          type="date"
          defaultValue={first?.valueDate ?? ''}
          onChange={(event) => {
            const date = event.currentTarget.value;
            onChange(date === '' ? [] : [{ valueDate: date }]);
          }}
        />
      );
    case 'boolean':
      return (
        <Radio.Group
          {...common}
          value={first?.valueBoolean === undefined ? null : String(first.valueBoolean)}
          onChange={(next) => onChange([{ valueBoolean: next === 'true' }])}
        >
          <Group gap="lg" mt={6}>
            <Radio value="true" label={t('intake.yes')} />
            <Radio value="false" label={t('intake.no')} />
          </Group>
        </Radio.Group>
      );
    case 'choice':
      return item.repeats === true ? (
        <Checkbox.Group
          {...common}
          value={value.flatMap((answer) => (answer.valueCoding?.code ? [answer.valueCoding.code] : []))}
          onChange={(codes) => onChange(codes.map(coding))}
        >
          <Stack gap={10} mt={8}>
            {options.map((option) => (
              <Checkbox
                key={option.code}
                size="md"
                value={option.code ?? ''}
                label={codingText(option, language)}
              />
            ))}
          </Stack>
        </Checkbox.Group>
      ) : (
        <Radio.Group
          {...common}
          value={first?.valueCoding?.code ?? null}
          onChange={(code) => onChange([coding(code)])}
        >
          <Stack gap={10} mt={8}>
            {options.map((option) => (
              <Radio
                key={option.code}
                size="md"
                value={option.code ?? ''}
                label={codingText(option, language)}
              />
            ))}
          </Stack>
        </Radio.Group>
      );
    case 'integer':
    case 'decimal': {
      const min = minValueOf(item);
      const max = maxValueOf(item);
      const unit = unitOf(item);
      const number = first?.valueInteger ?? first?.valueDecimal;
      const toAnswer = (next: number): AnswerValue =>
        item.type === 'integer' ? { valueInteger: Math.round(next) } : { valueDecimal: next };
      if (isScale(item)) {
        return (
          <Stack gap={4} data-linkid={item.linkId}>
            <Text size="sm" fw={500}>
              {label}
              {required ? (
                <Text component="span" c="red">
                  {' '}
                  *
                </Text>
              ) : null}
            </Text>
            <Slider
              min={min ?? 0}
              max={max ?? 10}
              step={1}
              value={number ?? min ?? 0}
              marks={[
                { value: min ?? 0, label: String(min ?? 0) },
                { value: max ?? 10, label: String(max ?? 10) },
              ]}
              onChange={(next) => onChange([toAnswer(next)])}
              aria-label={label}
              mb="md"
            />
            {error ? (
              <Text size="sm" c="red.8">
                {error}
              </Text>
            ) : null}
          </Stack>
        );
      }
      return (
        <NumberInput
          {...common}
          defaultValue={number ?? ''}
          min={min}
          max={max}
          allowDecimal={item.type === 'decimal'}
          rightSection={unit ? <Text size="sm">{unit.display ?? unit.code}</Text> : undefined}
          rightSectionWidth={unit ? 56 : undefined}
          description={min !== undefined && max !== undefined ? t('intake.range', { min, max }) : undefined}
          onChange={(next) =>
            onChange(typeof next === 'number' && Number.isFinite(next) ? [toAnswer(next)] : [])
          }
        />
      );
    }
    // Types the clinic's forms do not use (and groups/display text, drawn by the caller).
    case 'attachment':
    case 'dateTime':
    case 'display':
    case 'group':
    case 'open-choice':
    case 'quantity':
    case 'question':
    case 'reference':
    case 'time':
    case 'url':
      return null;
  }
}
