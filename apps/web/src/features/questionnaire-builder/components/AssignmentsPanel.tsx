import '@mantine/core/styles/Card.layer.css';
import { ActionIcon, Button, Card, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import type { QuestionnaireDetail } from '@telemedicina/shared/questionnaire-builder';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMe } from '../../../lib/session';
import { useLanguage } from '../../../lib/ui-state';
import { useAssignmentTargets } from '../api/get-assignment-targets';
import { useChangeQuestionnaire } from '../api/change-questionnaire';

/**
 * Where the questionnaire is sent at booking: the clinic attaches it to specialties and doctors; a
 * doctor to themselves ("send it for my appointments").
 */
export function AssignmentsPanel({
  questionnaire,
  isClinic,
}: {
  questionnaire: QuestionnaireDetail;
  isClinic: boolean;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const me = useMe().data?.user;
  const change = useChangeQuestionnaire(questionnaire.id);
  const targets = useAssignmentTargets(isClinic);
  const [specialtyId, setSpecialtyId] = useState('');
  const [doctorId, setDoctorId] = useState('');
  const isMine = questionnaire.assignments.some((assignment) => assignment.doctor?.id === me?.id);
  const canRemove = (assignment: QuestionnaireDetail['assignments'][number]) =>
    isClinic || assignment.doctor?.id === me?.id;

  return (
    <Card withBorder radius="md" padding="md" data-testid="builder-assignments">
      <Stack gap="sm">
        <Text fw={600}>{t('questionnaireBuilder.assign.title')}</Text>
        {questionnaire.assignments.length === 0 ? (
          <Text size="sm" c="gray.7">
            {t('questionnaireBuilder.assign.none')}
          </Text>
        ) : (
          <Stack gap={4} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
            {questionnaire.assignments.map((assignment) => {
              const name =
                assignment.specialty !== null
                  ? t('questionnaireBuilder.assign.specialty', { name: assignment.specialty.name[language] })
                  : t('questionnaireBuilder.assign.doctor', { name: assignment.doctor?.name ?? '' });
              return (
                <Group key={assignment.id} component="li" justify="space-between" wrap="nowrap" gap="xs">
                  <Text size="sm">{name}</Text>
                  {canRemove(assignment) ? (
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('questionnaireBuilder.assign.remove', { name })}
                      onClick={() => change.mutate({ kind: 'unassign', assignmentId: assignment.id })}
                    >
                      <IconX size={16} />
                    </ActionIcon>
                  ) : null}
                </Group>
              );
            })}
          </Stack>
        )}
        {isClinic ? (
          <>
            <Group align="flex-end" gap="xs" wrap="nowrap">
              <NativeSelect
                style={{ flex: 1, minWidth: 0 }}
                label={t('questionnaireBuilder.assign.toSpecialty')}
                value={specialtyId}
                data={[
                  { value: '', label: t('questionnaireBuilder.assign.pickSpecialty') },
                  ...(targets.data?.specialties ?? []).map((specialty) => ({
                    value: specialty.id,
                    label: specialty.name[language],
                  })),
                ]}
                onChange={(event) => setSpecialtyId(event.currentTarget.value)}
              />
              <Button
                variant="default"
                disabled={specialtyId === ''}
                onClick={() => {
                  change.mutate({ kind: 'assign', target: { specialtyId } });
                  setSpecialtyId('');
                }}
              >
                {t('questionnaireBuilder.assign.add')}
              </Button>
            </Group>
            <Group align="flex-end" gap="xs" wrap="nowrap">
              <NativeSelect
                style={{ flex: 1, minWidth: 0 }}
                label={t('questionnaireBuilder.assign.toDoctor')}
                value={doctorId}
                data={[
                  { value: '', label: t('questionnaireBuilder.assign.pickDoctor') },
                  ...(targets.data?.doctors ?? []).map((doctor) => ({
                    value: doctor.id,
                    label: doctor.name,
                  })),
                ]}
                onChange={(event) => setDoctorId(event.currentTarget.value)}
              />
              <Button
                variant="default"
                disabled={doctorId === ''}
                onClick={() => {
                  change.mutate({ kind: 'assign', target: { doctorId } });
                  setDoctorId('');
                }}
              >
                {t('questionnaireBuilder.assign.add')}
              </Button>
            </Group>
          </>
        ) : me !== undefined && !isMine ? (
          <Button
            variant="default"
            style={{ alignSelf: 'flex-start' }}
            onClick={() => change.mutate({ kind: 'assign', target: { doctorId: me.id } })}
          >
            {t('questionnaireBuilder.assign.toMe')}
          </Button>
        ) : null}
        <Text size="xs" c="gray.7">
          {t('questionnaireBuilder.assign.hint')}
        </Text>
      </Stack>
    </Card>
  );
}
